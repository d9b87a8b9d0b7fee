import {
  ActivityIcon,
  ArrowLeftRightIcon,
  BarChart3Icon,
  BellDotIcon,
  FolderIcon,
  InboxIcon,
  ListChecksIcon,
  type LucideIcon,
  SettingsIcon,
  Share2Icon,
  Trash2Icon,
  WebhookIcon,
} from "lucide-react";

export interface NavItem {
  /** The URL segment: `/files`, `/trash`, … */
  area: string;
  label: string;
  icon: LucideIcon;
  /** Areas not built yet render a plain "not available yet" page. */
  built: boolean;
  summary: string;
}

export const navItems: NavItem[] = [
  {
    area: "attention",
    label: "Needs attention",
    icon: BellDotIcon,
    built: true,
    summary: "Uploads to review, failed verifications, expiring shares, failures.",
  },
  {
    area: "files",
    label: "Files",
    icon: FolderIcon,
    built: true,
    summary: "Browse the workspace.",
  },
  {
    area: "trash",
    label: "Trash",
    icon: Trash2Icon,
    built: true,
    summary: "Restore or purge deleted files and folders.",
  },
  {
    area: "jobs",
    label: "Jobs",
    icon: ListChecksIcon,
    built: true,
    summary: "Moves, copies and bulk work running on the service.",
  },
  {
    area: "transfers",
    label: "Transfers",
    icon: ArrowLeftRightIcon,
    built: true,
    summary: "Watch uploads and downloads as they run.",
  },
  {
    area: "shares",
    label: "Shares",
    icon: Share2Icon,
    built: true,
    summary: "Create share links and read delivery receipts.",
  },
  {
    area: "portals",
    label: "Portals",
    icon: InboxIcon,
    built: true,
    summary: "Review what people uploaded through portals.",
  },
  {
    area: "webhooks",
    label: "Webhooks",
    icon: WebhookIcon,
    built: true,
    summary: "Endpoints, signed deliveries and replays.",
  },
  {
    area: "events",
    label: "Events",
    icon: ActivityIcon,
    built: true,
    summary: "A live log of everything the workspace does.",
  },
  {
    area: "usage",
    label: "Usage",
    icon: BarChart3Icon,
    built: false,
    summary: "Transfer volume and storage over time.",
  },
  {
    area: "settings",
    label: "Settings",
    icon: SettingsIcon,
    built: true,
    summary: "The workspace's name and logo, as its documents print them.",
  },
];
